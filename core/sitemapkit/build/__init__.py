"""Building: pages in, entries out, files on disk; ``generate`` runs it all."""
