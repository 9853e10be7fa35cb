// dr_wav (as miniaudio carries it, ma_dr_wav) reading a WAV file as Float32 in chunks, for FileIOBench's
// comparison: the same file, chunk size and run count as ExtAudioFile's row, timed inside this process.
//   drwav-read FILE CHUNK_FRAMES RUNS   prints the frames read and the median seconds of RUNS whole-file reads.
// run.sh compiles it against miniaudio.h from the PyPI miniaudio source package (Debian packages neither).
#define MINIAUDIO_IMPLEMENTATION
#define MA_NO_DEVICE_IO
#define MA_NO_ENGINE
#define MA_NO_NODE_GRAPH
#define MA_NO_RESOURCE_MANAGER
#define MA_NO_GENERATION
#define MA_NO_MP3
#define MA_NO_FLAC
#include "miniaudio.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: drwav-read FILE CHUNK_FRAMES RUNS\n"); return 2; }
    long chunk = atol(argv[2]), runs = atol(argv[3]);
    if (chunk <= 0 || runs <= 0 || runs > 1000) return 2;
    double *times = malloc(sizeof(double) * (size_t)runs);
    float *buffer = NULL;
    unsigned long long total = 0;
    for (long r = 0; r < runs; r++) {
        double t0 = now();
        ma_dr_wav wav;
        if (!ma_dr_wav_init_file(&wav, argv[1], NULL)) { fprintf(stderr, "drwav-read: cannot open %s\n", argv[1]); return 1; }
        if (!buffer) buffer = malloc(sizeof(float) * (size_t)chunk * wav.channels);
        total = 0;
        for (;;) {
            ma_uint64 n = ma_dr_wav_read_pcm_frames_f32(&wav, (ma_uint64)chunk, buffer);
            if (n == 0) break;
            total += n;
        }
        ma_dr_wav_uninit(&wav);
        times[r] = now() - t0;
    }
    qsort(times, (size_t)runs, sizeof(double), compare);
    printf("%llu %.9f\n", total, times[runs / 2]);
    free(buffer);
    free(times);
    return 0;
}
