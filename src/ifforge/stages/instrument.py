"""Anonymise + instrument stage (deterministic path): seed -> `f` returning (output, trackers).

Whether the renaming kept the function's behaviour is checked by execution in the execute stage.
"""

from __future__ import annotations

import libcst as cst

from ifforge.artifacts import code_version
from ifforge.codeops import anonymise as anonymise_module
from ifforge.codeops import instrument as instrument_module
from ifforge.codeops import source as source_module
from ifforge.codeops.anonymise import anonymise
from ifforge.codeops.instrument import NothingToTrack, instrument
from ifforge.records import DroppedItem, InstrumentedFunction, Outcome, SeedFunction

STAGE = "instrument"
VERSION = code_version(anonymise_module, instrument_module, source_module)


def run(seed: SeedFunction) -> Outcome[InstrumentedFunction]:
    try:
        anonymised = anonymise(seed.source, seed.entry)
        instrumented, trackers = instrument(anonymised.source)
    except NothingToTrack as error:
        return Outcome(dropped=[DroppedItem(task_id=seed.task_id, stage=STAGE, reason="nothing_to_track",
                                            detail=str(error), origin=seed.origin)])
    except (cst.ParserSyntaxError, ValueError) as error:
        return Outcome(dropped=[DroppedItem(task_id=seed.task_id, stage=STAGE, reason="instrument_failed",
                                            detail=f"{type(error).__name__}: {error}", origin=seed.origin)])
    return Outcome(kept=InstrumentedFunction(
        task_id=seed.task_id,
        original_source=seed.source,
        original_entry=seed.entry,
        anonymised_source=anonymised.source,
        instrumented_source=instrumented,
        renames=anonymised.renames,
        trackers=trackers,
        inputs=seed.inputs,
    ))
