// opencore-amr (Debian's libopencore-amrnb-dev and libopencore-amrwb-dev): the AMR narrowband and wideband
// decoders behind kAudioFormatAMR and kAudioFormatAMR_WB. Both take one frame in storage format (ToC byte first).
#include <opencore-amrnb/interf_dec.h>
#include <opencore-amrwb/dec_if.h>
