"""Every write of the seasons app, one module per subject: ``ratings``."""
