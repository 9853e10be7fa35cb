#include "AACRegistration.h"

// Runs when the program is loaded, so `import AudioToolboxAAC` (linking the product) is all a client needs.
__attribute__((constructor)) static void oca_aac_register_at_load(void) { oca_register_aac_codec(); }
