"""repomodeler: git repositories in, evidence-backed architecture model (SysML v2 + JSON) out."""

__version__ = "0.1.0"
