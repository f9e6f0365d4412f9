"""Pure-Python reference twins of the native kernels (readable; the test oracle)."""
