#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>

struct oca_av_functions oca_av;

#define OCA_STRING_(x) #x
#define OCA_STRING(x) OCA_STRING_(x)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded = false;

// Every pointer or none: a library that lacks one function leaves the whole table unset.
static void load(void) {
    // The sonames of the versions the headers describe, so layouts and code always agree. RTLD_LOCAL: the symbols
    // stay out of the global namespace (nothing else in the process is bound to them by accident).
    void *avutil = dlopen("libavutil.so." OCA_STRING(LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (!avutil) return;
    void *avcodec = dlopen("libavcodec.so." OCA_STRING(LIBAVCODEC_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (!avcodec) { dlclose(avutil); return; }
    struct oca_av_functions f;
    // avcodec's handle also searches its dependencies, avutil among them; avutil's is tried first for av_ names.
#define OCA_AV_RESOLVE(name) \
    f.name = (__typeof__(f.name))dlsym(avutil, #name); \
    if (!f.name) f.name = (__typeof__(f.name))dlsym(avcodec, #name); \
    if (!f.name) { dlclose(avcodec); dlclose(avutil); return; }
    OCA_AV_FUNCTIONS(OCA_AV_RESOLVE)
#undef OCA_AV_RESOLVE
    oca_av = f;
    loaded = true;  // pthread_once publishes the table to every caller that returns from it
}

bool oca_av_load(void) {
    pthread_once(&once, load);
    return loaded;
}
