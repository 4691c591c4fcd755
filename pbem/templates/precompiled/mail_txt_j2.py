from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'mail.txt.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    pass
    yield from context.blocks['greeting'][0](context)
    yield '\n\n'
    yield from context.blocks['intro'][0](context)
    yield '\n'
    yield from context.blocks['narrative'][0](context)
    yield from context.blocks['orders'][0](context)
    yield from context.blocks['score'][0](context)
    yield '\n'
    yield from context.blocks['next'][0](context)
    yield '\n'
    yield from context.blocks['attachments'][0](context)
    yield '\n'
    yield from context.blocks['howto'][0](context)
    yield '\n'
    yield from context.blocks['signature'][0](context)
    yield '\n'

def block_greeting(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_recipient = resolve('recipient')
    pass
    if (environment.getattr((undefined(name='recipient') if l_0_recipient is missing else l_0_recipient), 'id') == 'ALL'):
        pass
        yield 'To every side of the game,'
    else:
        pass
        yield str(environment.getattr((undefined(name='recipient') if l_0_recipient is missing else l_0_recipient), 'name'))
        yield ' player,'

def block_intro(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_intro = resolve('intro')
    l_0_sender = resolve('sender')
    l_0_step = resolve('step')
    l_0_scenario = resolve('scenario')
    l_0_game_id = resolve('game_id')
    l_0_game_turn = resolve('game_turn')
    pass
    if (undefined(name='intro') if l_0_intro is missing else l_0_intro):
        pass
        yield str((undefined(name='intro') if l_0_intro is missing else l_0_intro))
    else:
        pass
        yield str(environment.getattr((undefined(name='sender') if l_0_sender is missing else l_0_sender), 'name'))
        yield ' has played step '
        yield str((undefined(name='step') if l_0_step is missing else l_0_step))
        yield ' of '
        yield str(environment.getattr((undefined(name='scenario') if l_0_scenario is missing else l_0_scenario), 'title'))
        yield ' (game '
        yield str((undefined(name='game_id') if l_0_game_id is missing else l_0_game_id))
        yield ').'
        if (undefined(name='game_turn') if l_0_game_turn is missing else l_0_game_turn):
            pass
            yield ' Game-Turn '
            yield str((undefined(name='game_turn') if l_0_game_turn is missing else l_0_game_turn))
            yield ' of '
            yield str(environment.getattr((undefined(name='scenario') if l_0_scenario is missing else l_0_scenario), 'last_turn'))
            yield '.'

def block_narrative(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_narrative = resolve('narrative')
    pass
    yield '\n'
    if (undefined(name='narrative') if l_0_narrative is missing else l_0_narrative):
        pass
        yield 'What happened:\n'
        for l_1_line in (undefined(name='narrative') if l_0_narrative is missing else l_0_narrative):
            _loop_vars = {}
            pass
            yield '  - '
            yield str(l_1_line)
            yield '\n'
        l_1_line = missing
    else:
        pass
        yield 'Before these orders, nothing happened on the map.\n'

def block_orders(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_orders = resolve('orders')
    l_0_sender = resolve('sender')
    pass
    if (undefined(name='orders') if l_0_orders is missing else l_0_orders):
        pass
        yield '\n'
        yield str(environment.getattr((undefined(name='sender') if l_0_sender is missing else l_0_sender), 'possessive'))
        yield ' orders:\n'
        for l_1_line in (undefined(name='orders') if l_0_orders is missing else l_0_orders):
            _loop_vars = {}
            pass
            yield '  - '
            yield str(l_1_line)
            yield '\n'
        l_1_line = missing

def block_score(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_score = resolve('score')
    pass
    if (undefined(name='score') if l_0_score is missing else l_0_score):
        pass
        yield '\nVictory points: '
        l_1_loop = missing
        for (l_1_name, l_1_points), l_1_loop in LoopContext((undefined(name='score') if l_0_score is missing else l_0_score), undefined):
            _loop_vars = {}
            pass
            yield str(l_1_name)
            yield ' '
            yield str(l_1_points)
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ', '
        l_1_loop = l_1_name = l_1_points = missing
        yield '\n'

def block_next(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_next_action = resolve('next_action')
    pass
    yield 'Next: '
    yield str((undefined(name='next_action') if l_0_next_action is missing else l_0_next_action))
    yield '\n'

def block_attachments(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_attachments = resolve('attachments')
    pass
    yield 'Attached:\n'
    for l_1_a in (undefined(name='attachments') if l_0_attachments is missing else l_0_attachments):
        _loop_vars = {}
        pass
        yield '  - '
        yield str(environment.getattr(l_1_a, 'name'))
        yield ' ('
        yield str(environment.getattr(l_1_a, 'kind'))
        yield ', '
        yield str(environment.getattr(l_1_a, 'size'))
        yield ' bytes)\n'
    l_1_a = missing

def block_howto(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_howto = resolve('howto')
    pass
    if (undefined(name='howto') if l_0_howto is missing else l_0_howto):
        pass
        yield str((undefined(name='howto') if l_0_howto is missing else l_0_howto))
        yield '\n'
    else:
        pass
        yield 'To take this turn, save this email (or its attachments) and run:\n  pbem ingest GAME_DIR this-email.eml\nthen check the whole game with:\n  pbem verify GAME_DIR\n'

def block_signature(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield '-- \nsent with pbem: signed moves, dice nobody can fix\n'

blocks = {'greeting': block_greeting, 'intro': block_intro, 'narrative': block_narrative, 'orders': block_orders, 'score': block_score, 'next': block_next, 'attachments': block_attachments, 'howto': block_howto, 'signature': block_signature}
debug_info = '3=11&5=13&11=15&16=16&20=17&23=19&25=21&29=23&36=25&3=28&5=45&6=59&7=64&8=72&11=80&12=90&13=93&16=104&17=117&18=119&20=127&21=140&23=152&25=165&27=175&29=187&30=196&36=204'

# ruff: noqa
# mypy: ignore-errors
# Generated by python -m pbem.templates.precompile from the packaged template mail.txt.j2 (Jinja2 3.1.6, source sha1 7b654c1af086b0f7f48a1406c635923b6806b3e1): do not edit.
