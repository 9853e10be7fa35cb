// Linking the AudioToolboxAAC product registers its codec before main: a constructor here calls into Swift.
#ifndef OCA_AAC_REGISTRATION_H
#define OCA_AAC_REGISTRATION_H
void oca_register_aac_codec(void);
#endif
