"""Hex geometry shared by every system (:mod:`pbem.maps.hexmap`)."""
