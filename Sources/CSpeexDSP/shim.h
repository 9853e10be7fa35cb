// speexdsp's acoustic echo canceller and preprocessor (AGC, residual echo suppression), behind
// VoiceProcessingIO. Installed by scripts/setup.sh (libspeexdsp-dev).
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
