__version__ = "1.13.1"
cuda = None
