"""What the TF golden scripts (tf_*_golden.py) share: numpy, or exit 77
(the test skips) without it, and the .npy files of one test directory."""
import os
import sys

try:
    import numpy as np
except ImportError as e:
    print("SKIP: %s (install python3-numpy)" % e)
    sys.exit(77)


def load(d, name):
    """DIR/<name>.npy, an input or constant the test wrote."""
    return np.load(os.path.join(d, name + ".npy"))


def save(d, name, value):
    """DIR/golden_<name>.npy, the expected value of output <name>."""
    np.save(os.path.join(d, "golden_" + name + ".npy"), value)
