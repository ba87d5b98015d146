"""Draw: figures taken from the cache or drawn with matplotlib, across cores."""
