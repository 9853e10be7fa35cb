public enum _AudioDSPPlaceholder {}
