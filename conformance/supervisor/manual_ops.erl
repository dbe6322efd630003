%% Erlang twin of manual_ops.mr: terminate_child, restart_child,
%% delete_child, start_child and current, with their errors.
-module(manual_ops).
-export([main/0]).

-import(sup_kit, [report/2, show/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart) -> sup_kit:spec(Id, #{restart => Restart}).

observer() ->
    Sup = sup_kit:start(#{strategy => one_for_one, intensity => 5, period => 60},
                        [spec(a, permanent), spec(t, temporary), spec(c, transient)]),
    report("terminate zz", morrow_obs:terminate_child(Sup, zz)),
    report("terminate a", morrow_obs:terminate_child(Sup, a)),
    report("terminate a again", morrow_obs:terminate_child(Sup, a)),
    report("current a", morrow_obs:current(Sup, a)),
    show(Sup),
    report("restart c", morrow_obs:restart_child(Sup, c)),
    report("delete c", morrow_obs:delete_child(Sup, c)),
    report("restart a", morrow_obs:restart_child(Sup, a)),
    report("current a", morrow_obs:current(Sup, a)),
    report("terminate a", morrow_obs:terminate_child(Sup, a)),
    report("delete a", morrow_obs:delete_child(Sup, a)),
    report("delete a again", morrow_obs:delete_child(Sup, a)),
    report("restart a", morrow_obs:restart_child(Sup, a)),
    report("current a", morrow_obs:current(Sup, a)),
    report("terminate t", morrow_obs:terminate_child(Sup, t)),
    show(Sup),
    report("start_child d", morrow_obs:start_child(Sup, spec(d, permanent))),
    report("start_child d again", morrow_obs:start_child(Sup, spec(d, permanent))),
    report("terminate d", morrow_obs:terminate_child(Sup, d)),
    report("start_child d stopped", morrow_obs:start_child(Sup, spec(d, permanent))),
    report("start_child f", morrow_obs:start_child(Sup, sup_kit:spec(f, #{mode => {fail, {failure, "nope"}}}))),
    report("current f", morrow_obs:current(Sup, f)),
    report("start_child a", morrow_obs:start_child(Sup, spec(a, transient))),
    show(Sup),
    sup_kit:stop(Sup).
