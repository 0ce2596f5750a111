import flask

app = flask.Flask("api")


@app.route("/orders")
def orders():
    return []
