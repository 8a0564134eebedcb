"""Golden recordings: reference data made with the code of one grader version (``v1/``: grader
1.1; ``v2/``: grader 2.0; ``v3/``: grader 2.1 and the built-in policy's plainer replies; ``v4/``:
grader 3.0, every text judged; ``v5/``: grader 3.1, required facts read by value and meaning;
``v6/``: grader 3.2, harm read by its concept; ``v7/``: grader 3.3, outcomes read object-first and
conduct by its frame; ``v8/``: grader 3.4; ``v9/``: grader 3.5; ``v10/``: grader 3.6; ``v11/``: grader
3.7; ``v12/``: grader 3.8; ``v13/``: grader 3.9; ``v14/``: grader 3.10; ``v15/``: grader 3.11;
``v16/``: grader 3.12; ``v17/``: grader 3.13; ``v18/``: grader 3.14; ``v19/``: grader 3.15; ``v20/``:
grader 3.16), and
tests that replay it against today's code.
``record.py`` says how data is made and why a recorded version is never regenerated."""
