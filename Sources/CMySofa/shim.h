// libmysofa (Debian's libmysofa-dev): reads HRTFs in the AES69 SOFA format; libmysofa1 ships the MIT KEMAR set as
// /usr/share/libmysofa/default.sofa. The 3D mixer's HRTF algorithms read their filters through it.
#include <mysofa.h>
