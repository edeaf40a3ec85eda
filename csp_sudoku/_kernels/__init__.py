"""Compiled kernels (numba), one module per user: ``bitset`` for the fast backend.

Kernels take plain numpy arrays and integers only, so they compile once, are
cached on disk (``cache=True``) and load quickly in a fresh process. This
package imports nothing: each kernel module is imported by its caller when
first used.
"""
