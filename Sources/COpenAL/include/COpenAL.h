#ifndef COPENAL_H
#define COPENAL_H
#include "al.h"
#include "alc.h"
#include "MacOSX_OALExtensions.h"
#endif
