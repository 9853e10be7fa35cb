// Header-only target: the C declarations behind the AudioToolbox module.
