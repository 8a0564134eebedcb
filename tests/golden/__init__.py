"""Golden recordings: reference data made with the code of one grader version (``v1/``: grader
1.1), and tests that replay it against today's code. ``record.py`` says how data is made and why a
recorded version is never regenerated."""
