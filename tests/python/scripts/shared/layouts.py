"""Layouts shared by launch scripts: found through a sys.path entry the
script adds."""
PIPELINE = 4
EXPERT = 8
SEQUENCE = 2048
