"""The main command's plumbing, beside the analysis: parameter files, the scripts' one-line errors,
the notebook kernels' environment and the HTML report's pages (scripts/ runs them).

It stands on `ajb_utils` (the analysis a notebook reader needs), which never imports it.
"""
