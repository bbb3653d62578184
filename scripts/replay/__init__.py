"""The replay-cache builder behind scripts/build_replay_cache.py (data/teachers/README.md).

data        the data files under data/teachers/ and the `@@name@@` template scheme
prompts     which prompts get answers: plans.yaml and the rule that selects their prompts
page        the page around an app: layouts, the shared script kit, widgets
candidates  good and defective HTML candidates, and the message around them
compact     the compact teacher's answers: a ~1.4 kB page or a one-slide deck a tiny student can write
games, sims, quizzes, charts, scenes, tools
            the app engines, one function per app (templates/apps/<app>/)
slides      slide decks under the cogevol-slides/1 contract, good and defective
verify      executing every candidate the way distill does and checking its label
"""
