"""vassal-builder: wargame data to counters, maps, counter sheets, VASSAL modules and save audits."""

__version__ = "0.1.0"
