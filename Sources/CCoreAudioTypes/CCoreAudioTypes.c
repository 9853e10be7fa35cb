// Header-only target: the C declarations behind the CoreAudioTypes module.
