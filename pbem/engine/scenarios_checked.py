"""The bundled scenarios pbem's tests check in full: id -> (content hash, the hash of the
canonical bytes a game directory's copy holds; digest of the files it is read from,
:func:`pbem.engine.scenarios.files_digest`). A game of one whose bytes are these builds its
records without checking them again (:func:`pbem.engine.scenarios.is_checked`).
Written by ``python -m pbem.engine.scenarios`` after a bundled scenario changes (the tests fail
until then, and a changed file is checked in full meanwhile): do not edit."""

CHECKED: dict[str, tuple[str, str]] = {
    "arnhem-alternate": (
        "ba46da29c856b0aa097e3a0ef345b5c2afbaccd1dfc2d486fcb0cc07c1ad3c1a",
        "b8a63ae8daa92e99a9cf59b5ab461ceba557637c9cbc21b6dc1b3d017e87a690",
    ),
    "arnhem-historical": (
        "01820bfd5704e250fc436ecc67bba8511b4547f8c61b2d590f5834be2ea0dbc2",
        "4ef950097dd2cb9d254aa377abaa74bf48a2c1c805cf8de23b2d6a7bf4c818b9",
    ),
    "arnhem-historical-weather": (
        "eb39887f2a21d97538d7f8cc4a2303de783dd78a1153951cdd64c4e1eff39783",
        "6a2ca8dc959b38ea3de0730cb87f204949b8bb0dc3d689f29ac12fa9df366f43",
    ),
    "arnhem1944-free-drop": (
        "fa64b0546f99b589f443611a64b52635fac2869904354d01d9044794f1c0b833",
        "b1f18e22ff26104a3161fc065ab48d6d942f0bd5077f46e02fc61fef4c087b76",
    ),
    "arnhem1944-historical": (
        "2d3b9b1d353febb6b0331eed1364bc2509627362079fcda70aeb0f416e612fd5",
        "2f0815f7d8133ff63a7645c2813bc24252bf30f7d39880c6cd5f70ed5271f619",
    ),
    "bastogne-campaign": (
        "8eca4f735fc46f24b2e952a2b8cf1d3f1b8b260ca0e5ff7e66a801cc0a7bb106",
        "7db27bbd8322785d7fb753e308969c5c4bed1faa4dcdbfe561231357bfd2dfd6",
    ),
    "bastogne-relief": (
        "9edee2470999896e9d4debfe50000e038547ce891126d23dbf291b6825e72f47",
        "75335d51405c1fc4a685ef2c1a002499d4578abea371b30c25b356163336cefe",
    ),
    "bastogne-spearhead": (
        "2036f7591c815b7a086c9e5962a11707fe946c31ada50c3a9d8561041086c480",
        "92cc4f77aab1081b06cb5be1c6491c0dc812063e8fce0bee86ed077e4a360965",
    ),
    "megagame-arnhem": (
        "c28ebe7d10d7e6e7452321fc65a3cf63d17550eb70632e77ed393586b06f9569",
        "11a68cfea9e1598f759be38d6dcecc0758640c7773a52f603959cbc2e67932f3",
    ),
    "megagame-market-garden": (
        "acbc46f2ba88b43fa271c08392eeb630101a6af96091947f6dea718faca76b49",
        "796fe3c20c750fa8c2e8f8124082be6b1eecd9f96f3630416592f65937d26d3a",
    ),
    "megagame-market-garden-duel": (
        "e8976e69361e67fa75048a45b1e31770a17a3afb315527f5d635c45482624e6c",
        "d4b0fbda2b77547da692393dbb85ffe225ebff23103d912703e5f3f501444711",
    ),
}
