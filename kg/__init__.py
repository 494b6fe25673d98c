"""lijing-kg: a knowledge graph of 礼经本义 (蔡德晋's commentary on the 仪礼)."""

__version__ = "0.1.0"
