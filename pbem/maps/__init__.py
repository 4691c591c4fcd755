"""Shared by every system: hex geometry (:mod:`pbem.maps.hexmap`), the map document
(:mod:`pbem.maps.model`) and the map view the renderer draws (:mod:`pbem.maps.view`)."""
