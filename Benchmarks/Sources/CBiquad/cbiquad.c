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
