# A stand-in package folder: memest looks for it, never reads it.
