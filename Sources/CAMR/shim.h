// opencore-amr (Debian's libopencore-amrnb-dev and libopencore-amrwb-dev): the AMR narrowband and wideband
// decoders behind kAudioFormatAMR and kAudioFormatAMR_WB, and the narrowband encoder. All take or make one frame
// in storage format (ToC byte first). opencore-amrwb has no encoder; no wideband encoder library is linked.
#include <opencore-amrnb/interf_dec.h>
#include <opencore-amrnb/interf_enc.h>
#include <opencore-amrwb/dec_if.h>
// glibc's malloc_usable_size: AMRDecoderState sizes the heap blocks of opencore's decoder state with it.
#include <malloc.h>
