"""The URLs a build listed so far, held in little memory, for duplicate detection."""

from array import array


class UrlHashes:
    """The URLs listed so far, for duplicate detection, as 64-bit hashes in one open-addressing
    table (an ``array``): at most 32 bytes a URL, where a ``set`` of the URLs costs their
    strings and a ``set`` of their hashes about 80 bytes each (an int object and a slot).
    Two of a million URLs share a hash with a chance of about 3 in 100 million."""

    def __init__(self) -> None:
        self._mask = (1 << 12) - 1
        self._table = array("q", bytes(8 << 12))
        self._count = 0

    def holds(self, key: int) -> bool:
        """Whether a URL whose ``hash()`` is ``key`` was noted."""
        key = key or 1  # 0 marks a free slot
        return self._table[self._slot(key)] == key

    def add(self, url: str) -> bool:
        """Note ``url``; False when it was noted before."""
        key = hash(url) or 1
        table = self._table
        slot = key & self._mask
        found = table[slot]
        if found:  # (most new URLs find their first slot free: no probing call for them)
            if found == key:
                return False
            slot = self._slot(key)
            if table[slot] == key:
                return False
        table[slot] = key
        self._count += 1
        if self._count * 2 > self._mask:  # at most half full: probes stay short
            self._grow()
        return True

    def _slot(self, key: int) -> int:
        """Where ``key`` is in the table, else the free slot where it goes."""
        table, mask = self._table, self._mask
        slot = key & mask
        while (found := table[slot]) and found != key:
            slot = (slot + 1) & mask
        return slot

    def _grow(self) -> None:
        old = self._table
        self._mask = mask = self._mask * 2 + 1
        self._table = table = array("q", bytes(8 * (mask + 1)))
        for key in old:
            if key:
                slot = key & mask
                while table[slot]:
                    slot = (slot + 1) & mask
                table[slot] = key
