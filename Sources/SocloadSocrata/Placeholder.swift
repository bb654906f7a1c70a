// Socrata layer.
