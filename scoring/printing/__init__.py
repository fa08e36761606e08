"""Printed sheets as PDF bytes, not HTTP: the frozen shapes a sheet shows (`pdf_data`), the renderer
(`scoresheets`), what WeasyPrint may load (`pdf_fetcher`) and the self-entry codes a sheet carries
(`sheet_codes`). Services, selectors, commands and the web's PDF room use these; they never import
`scoring.web`."""
