// libasound (ALSA), the device backend of the CoreAudio module. Installed by scripts/setup.sh (libasound2-dev).
#include <alsa/asoundlib.h>
