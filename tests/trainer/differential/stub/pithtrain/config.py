"""The base of the stand-in config classes: built with no arguments, every
field with a default set, a field without one left unset (reading it
raises AttributeError), as the trainer's slotted configs behave."""
import dataclasses


class Defaulted:
    __slots__ = ()

    def __init__(self):
        for f in dataclasses.fields(self):
            if f.default is not dataclasses.MISSING:
                setattr(self, f.name, f.default)
            elif f.default_factory is not dataclasses.MISSING:
                setattr(self, f.name, f.default_factory())
