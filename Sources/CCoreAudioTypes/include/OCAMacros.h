// Apple's CF_ENUM / CF_OPTIONS / nullability macros, so that the Swift importer derives the same
// Swift names and shapes from our headers as from Apple's SDK (enums with `.case` names, OptionSets
// with Apple's member names, non-optional pointers where Apple's are non-optional).
#ifndef OCA_MACROS_H
#define OCA_MACROS_H

#include <stdint.h>
#include <stddef.h>

#ifndef CF_ENUM
#define __OCA_ENUM_ATTRIBUTES __attribute__((enum_extensibility(open)))
#define __OCA_ANON_ENUM(_type) enum __OCA_ENUM_ATTRIBUTES : _type
#define CF_ENUM(_type) __OCA_ANON_ENUM(_type)
#endif
// Named enums and option sets are written `typedef enum OCA_ENUM_ATTR Name : Type { ... } Name;`
// (C does not accept the two-declaration form of Apple's CF_ENUM/CF_OPTIONS macros); the importer
// gives them the same Swift shapes: open enums with `.case` names, and OptionSets.
#define OCA_ENUM_ATTR __attribute__((enum_extensibility(open)))
#define OCA_OPTIONS_ATTR __attribute__((flag_enum, enum_extensibility(open)))

#ifndef CF_ASSUME_NONNULL_BEGIN
#define CF_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define CF_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#endif

#ifndef CF_SWIFT_NAME
#define CF_SWIFT_NAME(_name) __attribute__((swift_name(#_name)))
#endif

// Calls the real-time checker (@_noLocks) may cross.
#define OCA_REALTIME_SAFE __attribute__((swift_attr("@_noLocks")))

#endif
