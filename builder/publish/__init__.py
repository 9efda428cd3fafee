"""Publishing: printable counter sheets and other outputs made from rendered counters."""
