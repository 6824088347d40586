"""pbem: a play-by-email turn processor for a wargame of war and politics in the ancient Aegean (430 BC)."""
__version__ = "0.8.0"
