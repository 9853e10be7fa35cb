// Apple's MacTypes names as macros (not typedefs), so Swift sees its own UInt32/UInt8 and no second,
// ambiguous `UInt32` declared by this module.
#ifndef CCOREMIDI_TYPES_H
#define CCOREMIDI_TYPES_H
#include <stdint.h>
#include <stdbool.h>
#include "OCAMacros.h"
#include "CoreAudioBaseTypes.h"
#define OCAMIDI_UInt8 uint8_t
#define OCAMIDI_UInt16 uint16_t
#define OCAMIDI_UInt32 uint32_t
#define OCAMIDI_UInt64 uint64_t
#define OCAMIDI_SInt32 int32_t
#define OCAMIDI_Byte uint8_t
#define OCAMIDI_ItemCount unsigned long
#define OCAMIDI_ByteCount unsigned long
#endif
