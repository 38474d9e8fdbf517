"""The learner's Python console and code checks (GUIDE §3).

Modules:
  kernel_session    KernelSession: the one owner of the kernel (manager, client, state).
  kernel_handle     KernelHandle and one constructor per kernel kind (own, installed, connected).
  kernel_workers    shutdown and restart on worker threads (the window never waits on them).
  prelaunch         the app kernel spawned at launch, adopted through a kernel provisioner.
  side_channel      SideChannelJob: work on the kernel over a private client, off the UI thread.
  kernel_chooser    KernelChooser: app Python / installed kernelspecs / connection file.
  console_dock      ConsoleDock: the RichJupyterWidget, state, Interrupt/Restart, banner.
  check_controller  CheckController: run the editor code visibly, then the check suite.
  check_panel       CheckPanel: the results table.

Wiring by the main window (qtconsole is only imported in ``ConsoleDock.start``)::

    dock = ConsoleDock(window)                 # settings: QSettings() by default
    window.addDockWidget(Qt.BottomDockWidgetArea, dock)
    checks = CheckController(dock.session, dock.run_code, window)
    panel = CheckPanel(); panel.bind(checks)   # results table + slow toggle
    answer.sig_run_requested.connect(dock.run_code)              # (code)
    answer.sig_check_requested.connect(
        lambda qid, code: checks.check(bank.question(qid), code))
    checks.sig_check_finished.connect(store_report)              # (question_id, report)
    window.show(); QTimer.singleShot(0, dock.start)              # kernel after show
    # on quit: checks.cancel(); dock.shutdown(); checks.shutdown()  (bounded; the dock
    # also hooks aboutToQuit) - attach_console's ConsoleParts.shutdown() does this

``report`` is ``CheckReport.to_json()`` plus ``"error"``: None when the suite ran,
else why there is no verdict (kernel died / restarted / not running); store it as
an attempt only when ``error`` is None.
"""
