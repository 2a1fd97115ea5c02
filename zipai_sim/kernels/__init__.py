"""Numba kernels: numpy arrays and the variant's integer tuple in, numpy arrays out.

Nothing here validates input; the public API in ``zipai_sim.api`` does. Every kernel has a slow
pure-Python twin in ``zipai_sim.reference`` that the tests compare it against.
"""
