"""From detections over time to game events: seat zones, play segmentation, trick gathered."""
