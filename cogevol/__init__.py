"""cogevol: small open models post-trained for slides and interactive HTML."""

__version__ = "0.1.0"
