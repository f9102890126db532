"""Xeri Companion: scorekeeping for Xeri (Ξερή) and its relatives."""

__version__ = "0.1.0"
