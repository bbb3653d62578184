"""Sandboxed Chromium for untrusted generated pages: a pool of instances driven by Playwright."""

from cogevol.browser.pool import BrowserConfig, BrowserPool, PageHung, find_chromium

__all__ = ["BrowserConfig", "BrowserPool", "PageHung", "find_chromium"]
