#include "cbiquad.h"

void c_biquad(const float *in, float *out, int n, const double *k, double *z) {
    double z1 = z[0], z2 = z[1];
    const double b0 = k[0], b1 = k[1], b2 = k[2], a1 = k[3], a2 = k[4];
    for (int i = 0; i < n; i++) {
        double x = in[i];
        double y = b0 * x + z1;
        z1 = b1 * x - a1 * y + z2;
        z2 = b2 * x - a2 * y;
        out[i] = (float)y;
    }
    z[0] = z1;
    z[1] = z2;
}

void c_biquad_cascade(const float *in, float *out, int n, const double *k, double *z, int sections) {
    for (int i = 0; i < n; i++) {
        double x = in[i];
        for (int s = 0; s < sections; s++) {
            const double *c = k + 5 * s;
            double *w = z + 2 * s;
            double y = c[0] * x + w[0];
            w[0] = c[1] * x - c[3] * y + w[1];
            w[1] = c[2] * x - c[4] * y;
            x = y;
        }
        out[i] = (float)x;
    }
}
