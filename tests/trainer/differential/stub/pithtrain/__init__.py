# A stand-in for the trainer's package, for the differential test of the
# launch-script reader: the config classes with the trainer's field names
# and defaults, the builders, and a launch() that records what it is given.
