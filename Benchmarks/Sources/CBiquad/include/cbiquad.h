// The peer for the biquad kernel: a plain C transposed-direct-form-II section in double, the loop any C DSP
// library writes (coefficients b0 b1 b2 a1 a2, state z1 z2).
#ifndef CBIQUAD_H
#define CBIQUAD_H
void c_biquad(const float *in, float *out, int n, const double *k, double *z);
// The peer for an EQ cascade: per sample, every section in turn (double between sections), the loop a C
// graphic EQ writes; k holds five coefficients per section, z two states per section.
void c_biquad_cascade(const float *in, float *out, int n, const double *k, double *z, int sections);
#endif
