"""The ``hedgerow`` command, the prompt_toolkit seat client and the headless bot runner."""
