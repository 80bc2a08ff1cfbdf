"""Moving finished deals from Redis to the archive (the archive itself is
``service/store/archive``)."""
