// libmpg123 (Debian's libmpg123-dev): the MP3 decoder behind kAudioFormatMPEGLayer3.
#include <mpg123.h>
