import numpy as np

registry = None
